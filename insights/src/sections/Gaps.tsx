// What the book did not answer, grouped by meaning, each with the section where it belongs.
import {DataTable} from '../components/DataTable';
import {SectionLinkCell} from '../components/SectionLinkCell';
import type {Gap} from '../types';

/** The group's other phrasings (its examples, less the question that stands for it). */
const others = (gap: Gap): string[] => gap.examples.filter((e) => e !== gap.question);

export function Gaps({gaps, bookUrl}: {gaps: Gap[]; bookUrl: string | null}) {
  return (
    <section aria-labelledby="gaps-title" className="card wide">
      <h2 id="gaps-title">What the book did not answer</h2>
      <p className="muted">
        Questions declined or rated down, grouped by meaning, most asked first. The closest section is where the book comes nearest: the place to
        add the answer.
      </p>
      <DataTable
        caption="Gaps: declined or rated-down questions, grouped"
        csvName="gaps.csv"
        testId="gaps-table"
        longText
        rows={gaps}
        empty="No declined or rated-down questions in this period."
        columns={[
          {
            label: 'Question',
            value: (g) => g.question,
            show: (g) => (
              <>
                <span className="question">{g.question}</span>
                {others(g).length ? <span className="muted examples">also: {others(g).join(' · ')}</span> : null}
              </>
            ),
          },
          {label: 'Asked', value: (g) => g.asked, numeric: true},
          {label: 'Declined', value: (g) => g.abstained, numeric: true},
          {label: 'Rated down', value: (g) => g.rated_down, numeric: true},
          {label: 'Last asked', value: (g) => g.last_asked},
          {
            label: 'Closest section',
            value: (g) => g.closest?.url ?? '',
            show: (g) => <SectionLinkCell bookUrl={bookUrl} url={g.closest?.url ?? null} section={g.closest?.section ?? null} chapterTitle={g.closest?.chapter_title} />,
          },
        ]}
      />
    </section>
  );
}
