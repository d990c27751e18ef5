import {describe, expect, it} from 'vitest';
import {csvCell, toCsv} from '../src/csv';

describe('CSV', () => {
  it('quotes cells holding commas, quotes or line breaks', () => {
    expect(toCsv(['question', 'asked'], [['Why, "exactly"?\nReally', 3]])).toBe('question,asked\r\n"Why, ""exactly""?\nReally",3\r\n');
  });

  it('keeps a question that looks like a formula from being run by a spreadsheet', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('-1')).toBe("'-1");
  });

  it('writes numbers as numbers and nothing for a missing value', () => {
    expect(csvCell(-2)).toBe('-2');
    expect(csvCell(0.25)).toBe('0.25');
    expect(csvCell(null)).toBe('');
  });
});
