// The period at a glance: how many questions, how they ended, how fast, how often cached.
import {count, ms, share} from '../format';
import type {Insights} from '../types';

export function Overview({insights}: {insights: Insights}) {
  const {totals, latency, answer_cache: cache} = insights;
  const of = (n: number) => (totals.asked ? n / totals.asked : null);
  const tiles: [string, string, string][] = [
    ['Questions', count(totals.asked), `${insights.since} – ${insights.until}`],
    ['Answered', share(of(totals.grounded)), `${count(totals.grounded)} questions`],
    ['Declined', share(of(totals.abstained)), `${count(totals.abstained)} questions${totals.related ? `, ${count(totals.related)} partly covered` : ''}`],
    ['Rated down', count(totals.rated_down), `${count(totals.rated_up)} rated up`],
    ['Answer time', ms(latency.p50_ms), `p95 ${ms(latency.p95_ms)}`],
    ['From the answer cache', share(cache.hit_share), `${count(cache.hits)} of ${count(cache.recorded)}`],
  ];
  return (
    <section aria-labelledby="overview-title" className="card">
      <h2 id="overview-title">At a glance</h2>
      <dl className="tiles" data-testid="overview">
        {tiles.map(([label, value, note]) => (
          <div key={label} className="tile">
            <dt>{label}</dt>
            <dd>
              <span className="big">{value}</span>
              <span className="muted">{note}</span>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
