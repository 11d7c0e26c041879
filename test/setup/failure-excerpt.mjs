// What `npm test` repeats of a failed step at the end of its output (test/run-suites.mjs).

const BANNER = /⎯ (Failed (Suites|Tests) \d+|Unhandled \w+|Startup Error) ⎯/;
const NAMED = /^\s*FAIL\s/;
/** A line that starts an entry of the excerpt: a banner, or a failed file or test. */
const starts = (line) => BANNER.test(line) || NAMED.test(line);

/**
 * What a failed step printed about its failure, to repeat after the run: a CI page often keeps only
 * a log's tail, and the two lanes' lines interleave. For a vitest suite, each error banner and each
 * failed file or test it names ("FAIL  project file > test"), each with the first two non-blank
 * lines after it (the error); for another step, or a suite that printed neither, its last 30 lines.
 * At most `max` lines (40: a CI page keeping ~100 lines of the tail shows two failed steps and the summary), colours removed.
 */
export function failureOf(lines, max = 40) {
  const plain = lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trimEnd());
  const picked = [];
  plain.forEach((line, i) => {
    if (!starts(line)) return;
    picked.push(line.trim());
    for (let j = i + 1, kept = 0; j < plain.length && kept < 2 && !starts(plain[j]); j++) {
      if (plain[j].trim() === '') continue;
      picked.push(`    ${plain[j].trim()}`);
      kept++;
    }
  });
  const part = picked.length > 0 ? picked : plain.filter((l) => l.trim() !== '').slice(-30);
  return part.length > max ? [...part.slice(0, max), `... and ${part.length - max} more lines: see this step's output above`] : part;
}
