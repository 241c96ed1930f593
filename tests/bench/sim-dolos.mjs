// make bench-similarity's Dolos runner: every pair of the files listed in
// LIST (one path a line) with Dolos's similarity, as "A<TAB>B<TAB>SCORE"
// lines on stdout (names: the file names without ".c").
//   node sim-dolos.mjs NODE_MODULES LIST [IGNORE_FILE]
import { createRequire } from "module";
import { readFileSync } from "fs";
import { basename } from "path";

const [modules, list, ignore] = process.argv.slice(2);
const require = createRequire(modules + "/");
const { Dolos } = await import(require.resolve("@dodona/dolos-lib"));
const paths = readFileSync(list, "utf8").split("\n").filter(Boolean);
const dolos = new Dolos({ language: "c" });
const report = await dolos.analyzePaths(paths, ignore || undefined);
const name = (f) => basename(f.path).replace(/\.c$/, "");
const out = [];
for (const p of report.allPairs())
	out.push(`${name(p.leftFile)}\t${name(p.rightFile)}\t${p.similarity}`);
process.stdout.write(out.join("\n") + "\n");
