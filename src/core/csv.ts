/**
 * Minimal RFC 4180 field splitting for one line: commas, double-quoted fields, `""` escapes.
 * Quoted fields spanning lines are not supported (none of the broker's or the exchanges' files
 * have them); an unbalanced quote is reported rather than guessed at.
 */
export function splitCsvLine(line: string): string[] | { error: string } {
  if (!line.includes('"')) return line.split(',');
  const out: string[] = [];
  let i = 0;
  const n = line.length;
  for (;;) {
    if (line[i] === '"') {
      let field = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) return { error: 'unbalanced quote' };
        field += line.slice(i, q);
        if (line[q + 1] === '"') {
          field += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(field);
      if (i >= n) return out;
      if (line[i] !== ',') return { error: `unexpected character after a quoted field at column ${i + 1}` };
      i++;
    } else {
      const c = line.indexOf(',', i);
      if (c < 0) {
        out.push(line.slice(i));
        return out;
      }
      out.push(line.slice(i, c));
      i = c + 1;
    }
  }
}

/** Lines of a text file without their line endings (CRLF or LF); a trailing empty line is dropped. */
export function csvLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines[0]?.charCodeAt(0) === 0xfeff) lines[0] = lines[0].slice(1);
  return lines;
}
