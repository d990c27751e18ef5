// Chapters ranked by questions asked, or by the share the book declined.
import {useMemo, useState} from 'react';
import {BarChart} from '../components/BarChart';
import {DataTable} from '../components/DataTable';
import {share} from '../format';
import {bookHref} from '../links';
import type {Theme} from '../theme';
import type {ChapterRow} from '../types';

type Rank = 'asked' | 'declined';
const percent = (v: number) => share(v);

export function Chapters({chapters, bookUrl, theme}: {chapters: ChapterRow[]; bookUrl: string | null; theme: Theme}) {
  const [rank, setRank] = useState<Rank>('asked');
  const ranked = useMemo(
    () =>
      [...chapters].sort((a, b) =>
        rank === 'asked' ? b.asked - a.asked : b.declined_share - a.declined_share || b.asked - a.asked,
      ),
    [chapters, rank],
  );
  const shown = useMemo(() => ranked.slice(0, 12), [ranked]);
  const labels = useMemo(() => shown.map((c) => c.title), [shown]);
  const series = useMemo(
    () =>
      rank === 'asked'
        ? [
            {label: 'Answered', values: shown.map((c) => c.grounded), color: '--answered'},
            {label: 'Declined', values: shown.map((c) => c.abstained), color: '--declined'},
            ...(shown.some((c) => c.related) ? [{label: 'Partly covered', values: shown.map((c) => c.related), color: '--related'}] : []),
          ]
        : [{label: 'Declined share', values: shown.map((c) => c.declined_share), color: '--declined'}],
    [shown, rank],
  );
  return (
    <section aria-labelledby="chapters-title" className="card">
      <h2 id="chapters-title">Chapters</h2>
      <fieldset className="toggle">
        <legend>Rank by</legend>
        {(['asked', 'declined'] as const).map((r) => (
          <label key={r}>
            <input type="radio" name="rank" value={r} checked={rank === r} onChange={() => setRank(r)} />
            {r === 'asked' ? 'questions' : 'declined share'}
          </label>
        ))}
      </fieldset>
      <BarChart
        labels={labels}
        series={series}
        stacked={rank === 'asked'}
        horizontal
        theme={theme}
        tick={rank === 'declined' ? percent : undefined}
        height={Math.max(160, shown.length * 30 + 60)}
        summary={`Chapters ranked by ${rank === 'asked' ? 'questions asked' : 'the share of questions declined'}; the table below lists them.`}
      />
      <DataTable
        caption={`Chapters by ${rank === 'asked' ? 'questions asked' : 'declined share'}`}
        csvName="chapters.csv"
        testId="chapters-table"
        rows={ranked}
        columns={[
          {
            label: 'Chapter',
            value: (c) => c.title,
            show: (c) => {
              const href = bookHref(bookUrl, c.url);
              return href ? <a href={href} target="_blank" rel="noopener noreferrer">{c.title}</a> : c.title;
            },
          },
          {label: 'Asked', value: (c) => c.asked, numeric: true},
          {label: 'Answered', value: (c) => c.answered_share, show: (c) => share(c.answered_share), numeric: true},
          {label: 'Declined', value: (c) => c.declined_share, show: (c) => share(c.declined_share), numeric: true},
          {label: 'Rated down', value: (c) => c.rated_down, numeric: true},
        ]}
      />
    </section>
  );
}
