"""Draws docs/gallery/contact-sheet.png: the 40 catalog pictures in catalog order,
five to a row, from docs/gallery/README.md's order. Needs Pillow
(`pip install pillow`); run from the repository root after
`cargo run -p isomer-gallery -- docs/gallery`."""

from pathlib import Path

from PIL import Image

GALLERY = Path("docs/gallery")
COLUMNS, WIDTH, GAP = 5, 384, 8
HEIGHT = WIDTH * 1080 // 1920

names = [
    line.split("(catalog/")[1].rstrip(")\n")
    for line in (GALLERY / "README.md").read_text().splitlines()
    if "(catalog/" in line
]
rows = -(-len(names) // COLUMNS)
sheet = Image.new(
    "RGB",
    (COLUMNS * (WIDTH + GAP) + GAP, rows * (HEIGHT + GAP) + GAP),
    (200, 200, 200),
)
for index, name in enumerate(names):
    picture = Image.open(GALLERY / "catalog" / name).convert("RGB")
    picture = picture.resize((WIDTH, HEIGHT), Image.LANCZOS)
    row, column = divmod(index, COLUMNS)
    sheet.paste(picture, (GAP + column * (WIDTH + GAP), GAP + row * (HEIGHT + GAP)))
sheet.save(GALLERY / "contact-sheet.png", optimize=True)
