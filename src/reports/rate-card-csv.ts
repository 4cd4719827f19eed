import { parse } from 'csv-parse/sync';
import { errors } from '../shared/errors.js';
import { canonicalMarket } from './rate-card.js';
import { reportProblems } from './report.problems.js';

/** A rate card read from Meta's CSV: its currency when the file names one, and market → category → price. */
export interface ParsedRateCard {
  currency: string | null;
  rates: Record<string, Record<string, number>>;
}

/**
 * The headers of Meta's published rate cards, as `headerKey` reads them, and what each column is.
 * Meta's files have named the same column several ways ("Authentication-International",
 * "Authentication International", "Auth-International", "Market", "Market name"); any other column
 * (notes, volume tiers) is left alone.
 */
const COLUMNS: Record<string, string> = {
  market: 'market',
  market_name: 'market',
  country_market: 'market',
  currency: 'currency',
  marketing: 'marketing',
  utility: 'utility',
  authentication: 'authentication',
  authentication_international: 'authentication_international',
  auth_international: 'authentication_international',
  service: 'service',
};

/** Cells that say a market has no rate for a category (Meta writes n/a; spreadsheets leave them blank). */
const NO_RATE = new Set(['', 'n/a', 'na', '-', '–', '—']);
const PRICE = /^\d+(\.\d+)?$/;
const FIELD = 'file';

/** "Authentication-International (USD)" → "authentication_international". */
const headerKey = (cell: string) =>
  cell
    .replace(/\(.*?\)/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^a-z]+/g, '_')
    .replace(/^_|_$/g, '');

/**
 * Reads Meta's rate card CSV: title lines may come first (Meta's downloads start with the card's name
 * and date); the header row is the first whose first cell is the market column, then one row per
 * market. A file Parley cannot read exactly is refused (400 on `file`), naming the row (counted as a
 * spreadsheet numbers it) and the column: a card half-read would price messages wrongly for years.
 */
export function parseRateCardCsv(text: string): ParsedRateCard {
  const rows = readRows(text);
  const headerAt = rows.findIndex((row) => COLUMNS[headerKey(row[0] ?? '')] === 'market');
  const header = rows[headerAt]?.map((cell) => COLUMNS[headerKey(cell)]);
  if (!header || !header.some((column) => column && column !== 'market' && column !== 'currency')) {
    throw errors.invalid(reportProblems.problem(FIELD, 'card_header'));
  }
  const card: ParsedRateCard = { currency: null, rates: {} };
  rows.slice(headerAt + 1).forEach((cells, index) => {
    if (cells.every((cell) => cell.trim() === '')) return;
    readMarket(card, header, rows[headerAt]!, cells, headerAt + index + 2);
  });
  if (Object.keys(card.rates).length === 0) throw errors.invalid(reportProblems.problem(FIELD, 'card_empty'));
  return card;
}

function readRows(text: string): string[][] {
  try {
    return parse(text.replace(/^\uFEFF/, ''), { relaxColumnCount: true, skipEmptyLines: true, trim: true });
  } catch {
    throw errors.invalid(reportProblems.problem(FIELD, 'card_header'));
  }
}

/** One market's row into the card; `row` is its line number in the file. */
function readMarket(
  card: ParsedRateCard,
  columns: (string | undefined)[],
  names: string[],
  cells: string[],
  row: number,
): void {
  const name = cells[0] ?? '';
  const market = canonicalMarket(name);
  if (!market) throw errors.invalid(reportProblems.problem(FIELD, 'card_market', { row, market: name }));
  if (card.rates[market]) throw errors.invalid(reportProblems.problem(FIELD, 'card_market_twice', { row, market }));
  const rates: Record<string, number> = {};
  columns.forEach((column, index) => {
    const cell = (cells[index] ?? '').trim();
    if (column === 'currency') {
      card.currency ??= cell.toUpperCase();
      if (card.currency !== cell.toUpperCase())
        throw errors.invalid(reportProblems.problem(FIELD, 'card_currency_varies', { row }));
    } else if (column && column !== 'market' && !NO_RATE.has(cell.toLowerCase())) {
      if (!PRICE.test(cell))
        throw errors.invalid(reportProblems.problem(FIELD, 'card_price', { row, column: names[index]!, value: cell }));
      rates[column] = Number(cell);
    }
  });
  card.rates[market] = rates;
}
