// A table with a caption and a CSV download of exactly what it shows. Cells are React text:
// a question holding HTML or a script is shown as the characters it is.
import type {ReactNode} from 'react';
import {type Cell, download, toCsv} from '../csv';

export interface Column<Row> {
  label: string;
  value: (row: Row) => Cell;
  /** How the cell is shown when not as its plain value (a link, a percentage). */
  show?: (row: Row) => ReactNode;
  numeric?: boolean;
}

interface Props<Row> {
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  csvName: string;
  empty?: string;
  testId?: string;
  /** Columns of sentences: on a narrow screen the table scrolls sideways rather than squeeze. */
  longText?: boolean;
}

export function DataTable<Row>({caption, columns, rows, csvName, empty = 'Nothing in this period.', testId, longText = false}: Props<Row>) {
  const csv = () => toCsv(columns.map((c) => c.label), rows.map((row) => columns.map((c) => c.value(row))));
  return (
    <div className="table-block">
      <div className="table-scroll">
        <table data-testid={testId} className={longText ? 'long-text' : undefined}>
          <caption>{caption}</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.label} scope="col" className={c.numeric ? 'num' : undefined}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={columns.length} className="empty">
                  {empty}
                </td>
              </tr>
            ) : (
              rows.map((row, i) => (
                <tr key={i}>
                  {columns.map((c) => (
                    <td key={c.label} className={c.numeric ? 'num' : undefined}>
                      {c.show ? c.show(row) : (c.value(row) ?? '')}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <button type="button" className="csv plain" onClick={() => download(csvName, csv())} disabled={rows.length === 0}>
        Download CSV<span className="visually-hidden">: {caption}</span>
      </button>
    </div>
  );
}
