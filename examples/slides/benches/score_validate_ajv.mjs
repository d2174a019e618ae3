// ajv 8 (default options, the draft 2020-12 class) validating the recorded
// slides answers against the runtime's exported composition schema: the
// reference `Runtime::validate` is compared with. The inputs come from
// `score_validate_ajv export <dir>` (see score_validate_ajv.rs for the
// commands); the answers are parsed before timing, as on the Rust side.
//
// NODE_PATH=<dir with ajv installed>/node_modules node score_validate_ajv.mjs <dir>
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const Ajv2020 = require("ajv/dist/2020").default;

const dir = process.argv[2];
const schema = JSON.parse(readFileSync(join(dir, "composition-schema.json"), "utf8"));
const answers = JSON.parse(readFileSync(join(dir, "answers.json"), "utf8"));
const validate = new Ajv2020().compile(schema);

const valid = answers.filter((answer) => validate(answer)).length;
const start = process.hrtime.bigint();
let checked = 0;
while (Number(process.hrtime.bigint() - start) < 2e9) {
  for (const answer of answers) {
    validate(answer);
  }
  checked += answers.length;
}
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
console.log(
  `ajv 8: ${answers.length} answers (${valid} valid), ${Math.round(checked / seconds)} compositions/s`,
);
