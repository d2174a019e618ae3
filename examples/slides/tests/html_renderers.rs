//! Every slides primitive draws the `html` surface with its own renderer:
//! none is left to the sdk's conversion of its Markdown, whose generic
//! lists and tables carry none of the primitive's figure.

use isomer_sdk::SurfaceSupport;

#[test]
fn every_primitive_has_its_own_html_renderer() {
    let runtime = isomer_slides::runtime().expect("the slides runtime builds");
    let capabilities = runtime.capabilities();
    assert_eq!(capabilities.primitives.len(), 40);
    let fallback: Vec<&str> = capabilities
        .support
        .iter()
        .filter(|(_, surfaces)| surfaces["html"] != SurfaceSupport::Native)
        .map(|(primitive, _)| primitive.as_str())
        .collect();
    assert_eq!(fallback, [""; 0], "drawn through the Markdown fallback");
}
