// The answers readers rated down, newest first, with what they said.
import {DataTable} from '../components/DataTable';
import {SectionLinkCell} from '../components/SectionLinkCell';
import type {RatedDown as Row} from '../types';

export function RatedDown({rows, bookUrl}: {rows: Row[]; bookUrl: string | null}) {
  return (
    <section aria-labelledby="down-title" className="card wide">
      <h2 id="down-title">Answers readers rated down</h2>
      <DataTable
        caption="Rated-down answers, newest first"
        csvName="rated-down.csv"
        testId="rated-down-table"
        longText
        rows={rows}
        empty="No answer was rated down in this period."
        columns={[
          {label: 'Day', value: (r) => r.asked_on},
          {label: 'Question', value: (r) => r.question, show: (r) => <span className="question">{r.question}</span>},
          {label: 'Answer began', value: (r) => r.answer_start, show: (r) => <span className="answer">{r.answer_start}</span>},
          {label: 'Cited section', value: (r) => r.url ?? '', show: (r) => <SectionLinkCell bookUrl={bookUrl} url={r.url} section={r.section} />},
          {label: 'Comment', value: (r) => r.comment ?? ''},
        ]}
      />
    </section>
  );
}
