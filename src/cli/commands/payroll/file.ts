import { readFileSync } from 'node:fs';
import { UsageError } from '../../errors.js';
import { codeOf, messageOf } from '../../../../contract/errors.js';
import { isRecord } from '../../../../contract/json-path.js';

// Payroll lines from a file. CSV: a header row naming the columns (external_ref, payee_phone,
// amount_cents, optional label), RFC 4180 quoting. JSON: the whole request body or the array
// of lines. The result is checked against the emulator's own zod schema before sending.

const MAX_FILE_LINES = 500;

export function readPayrollFile(path: string, currency: string | undefined, note: string | undefined): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`--file: cannot read ${path} (${codeOf(err) ?? messageOf(err)}).`);
  }
  const body = /\.json$/i.test(path) || /^\s*[[{]/.test(text) ? fromJson(path, text) : { payments: fromCsv(path, text) };
  if (currency !== undefined) body.currency = currency;
  if (note !== undefined) body.note = note;
  if (body.currency === undefined) throw new UsageError('missing --currency: USD or LRD (the file does not name one).');
  return body;
}

function fromJson(path: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--file: ${path} is not valid JSON (${messageOf(err)}).`);
  }
  if (Array.isArray(value)) return { payments: value };
  if (isRecord(value)) return { ...value };
  throw new UsageError(`--file: ${path} must hold a JSON object or an array of lines.`);
}

const COLUMNS = ['external_ref', 'payee_phone', 'amount_cents', 'label'];

function fromCsv(path: string, text: string): Record<string, unknown>[] {
  const rows = parseCsv(text).filter((r) => r.some((cell) => cell.trim() !== ''));
  if (rows.length === 0) throw new UsageError(`--file: ${path} is empty.`);
  const header = rows[0].map((h) => h.trim().toLowerCase());
  for (const h of header) if (!COLUMNS.includes(h)) throw new UsageError(`--file: unknown column "${h}" in ${path}; expected ${COLUMNS.join(', ')}.`);
  for (const required of COLUMNS.slice(0, 3)) if (!header.includes(required)) throw new UsageError(`--file: ${path} has no "${required}" column.`);
  if (rows.length - 1 > MAX_FILE_LINES) throw new UsageError(`--file: ${path} has ${rows.length - 1} lines; a run holds at most ${MAX_FILE_LINES}.`);
  return rows.slice(1).map((cells, i) => {
    const line: Record<string, unknown> = {};
    header.forEach((h, col) => {
      const cell = (cells[col] ?? '').trim();
      if (h === 'label' && cell === '') return;
      // A non-numeric amount stays a string, so the schema reports it with its line number.
      line[h] = h === 'amount_cents' && /^-?\d+$/.test(cell) ? Number(cell) : cell;
    });
    if (cells.length > header.length) throw new UsageError(`--file: line ${i + 2} of ${path} has more cells than the header.`);
    return line;
  });
}

/** RFC 4180: commas, CRLF or LF, double quotes with "" escapes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}
