// The README's application example, read from the README itself so that the test runs the text a
// reader copies: the program, the fault it tells the reader to send, and what it says it prints.

/** What the README's example section says, as the test needs it. */
export interface ReadmeExample {
  /** The fenced program that starts with `// app.mjs`, as written. */
  readonly program: string;
  /** The body of the `curl … /_chaos/faults -d '…'` the reader sends between two lines. */
  readonly fault: unknown;
  /** The lines it prints, in order: `mcp-resilience …` lines are the log's, on stderr; the others are on stdout. */
  readonly printed: readonly PrintedLine[];
}

export interface PrintedLine {
  readonly stream: 'stdout' | 'stderr';
  readonly line: string;
}

const FENCE = /^```(\w*)\n([\s\S]*?)^```$/gm;

/**
 * The fenced program (its first line `// app.mjs…`) of a README, as written.
 *
 * @example
 * exampleProgram(readFileSync('README.md', 'utf8')).startsWith('// app.mjs'); // true
 */
export function exampleProgram(markdown: string): string {
  const program = [...markdown.matchAll(FENCE)].find(([, , body]) => body!.startsWith('// app.mjs'))?.[2];
  if (program === undefined) throw new Error('no fenced block starting with "// app.mjs"');
  return program;
}

/**
 * The example section of the root README: the program, then the `curl` fault, then the first
 * `text` block after it (what it prints).
 *
 * @example
 * const { program, fault, printed } = readmeExample(readFileSync('README.md', 'utf8'));
 * printed[1]; // { stream: 'stdout', line: 'before' }
 */
export function readmeExample(markdown: string): ReadmeExample {
  const program = exampleProgram(markdown);
  const after = markdown.slice(markdown.indexOf(program) + program.length + '```'.length); // past its closing fence
  const fault = /curl -X POST \S+\/_chaos\/faults -d '([^']+)'/.exec(after)?.[1];
  if (fault === undefined) throw new Error('no "curl -X POST …/_chaos/faults -d \'…\'" after the example');
  const printed = [...after.matchAll(FENCE)].find(([, language]) => language === 'text')?.[2];
  if (printed === undefined) throw new Error('no ```text block after the example');
  return {
    program,
    fault: JSON.parse(fault),
    printed: printed.split('\n').filter((line) => line !== '')
      .map((line) => ({ stream: line.startsWith('mcp-resilience ') ? 'stderr' : 'stdout', line })),
  };
}
