// The sections answers cite most: what readers come to the book for.
import {useMemo} from 'react';
import {BarChart} from '../components/BarChart';
import {DataTable} from '../components/DataTable';
import {SectionLinkCell} from '../components/SectionLinkCell';
import type {Theme} from '../theme';
import type {CitedSection} from '../types';

export function Cited({sections, bookUrl, theme}: {sections: CitedSection[]; bookUrl: string | null; theme: Theme}) {
  const shown = useMemo(() => sections.slice(0, 10), [sections]);
  const labels = useMemo(() => shown.map((s) => s.section || s.url), [shown]);
  const series = useMemo(() => [{label: 'Answers citing it', values: shown.map((s) => s.answers), color: '--cited'}], [shown]);
  return (
    <section aria-labelledby="cited-title" className="card">
      <h2 id="cited-title">Most-cited sections</h2>
      <BarChart labels={labels} series={series} horizontal theme={theme} height={Math.max(160, shown.length * 30 + 40)} summary="The sections answers cite most; the table below lists them." />
      <DataTable
        caption="Sections by answers citing them"
        csvName="cited-sections.csv"
        testId="cited-table"
        rows={sections}
        columns={[
          {label: 'Section', value: (s) => s.url, show: (s) => <SectionLinkCell bookUrl={bookUrl} url={s.url} section={s.section} chapterTitle={s.chapter_title} />},
          {label: 'Answers', value: (s) => s.answers, numeric: true},
        ]}
      />
    </section>
  );
}
