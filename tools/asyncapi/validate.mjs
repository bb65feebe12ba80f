// Validates AsyncAPI documents with the AsyncAPI initiative's own parser: every file named on
// the command line, each error printed with its path; exit 1 if any has one.
import { Parser } from '@asyncapi/parser';
import { readFileSync } from 'node:fs';

const parser = new Parser();
let failed = false;
for (const file of process.argv.slice(2)) {
  const { diagnostics } = await parser.parse(readFileSync(file, 'utf8'));
  // Severity 0 is an error; warnings and hints are style advice.
  const errors = diagnostics.filter((d) => d.severity === 0);
  for (const e of errors) {
    console.error(`${file}: ${e.code} at /${e.path.join('/')}: ${e.message}`);
  }
  if (errors.length === 0) {
    console.log(`${file}: valid AsyncAPI ${JSON.parse(readFileSync(file, 'utf8')).asyncapi}`);
  }
  failed ||= errors.length > 0;
}
process.exit(failed ? 1 : 0);
