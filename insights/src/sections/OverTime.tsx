// Questions per day, stacked by how they ended.
import {useMemo} from 'react';
import {BarChart} from '../components/BarChart';
import {DataTable} from '../components/DataTable';
import type {Theme} from '../theme';
import type {Day} from '../types';

export function OverTime({days, theme}: {days: Day[]; theme: Theme}) {
  const labels = useMemo(() => days.map((d) => d.day.slice(5)), [days]);
  const series = useMemo(
    () => [
      {label: 'Answered', values: days.map((d) => d.grounded), color: '--answered'},
      {label: 'Declined', values: days.map((d) => d.abstained), color: '--declined'},
      // A third status (the closest places shown instead of an answer), when there is one.
      ...(days.some((d) => d.related) ? [{label: 'Partly covered', values: days.map((d) => d.related), color: '--related'}] : []),
    ],
    [days],
  );
  const asked = days.reduce((sum, d) => sum + d.asked, 0);
  const related = days.some((d) => d.related > 0);
  return (
    <section aria-labelledby="time-title" className="card wide">
      <h2 id="time-title">Questions over time</h2>
      <BarChart labels={labels} series={series} stacked theme={theme} summary={`Questions per day, answered and declined: ${asked} in ${days.length} days. The table below lists them.`} />
      <DataTable
        caption="Questions per day (UTC)"
        csvName="questions-per-day.csv"
        testId="days-table"
        rows={days.filter((d) => d.asked > 0)}
        empty="No questions in this period."
        columns={[
          {label: 'Day', value: (d) => d.day},
          {label: 'Asked', value: (d) => d.asked, numeric: true},
          {label: 'Answered', value: (d) => d.grounded, numeric: true},
          {label: 'Declined', value: (d) => d.abstained, numeric: true},
          ...(related ? [{label: 'Partly covered', value: (d: Day) => d.related, numeric: true}] : []),
          {label: 'Rated down', value: (d) => d.rated_down, numeric: true},
        ]}
      />
    </section>
  );
}
