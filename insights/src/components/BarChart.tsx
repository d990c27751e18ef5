// A bar chart drawn by Chart.js on a canvas. The canvas is an image with a one-line summary
// for screen readers; the table under every chart holds the same numbers.
import {BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip} from 'chart.js';
import {useEffect, useRef} from 'react';
import type {Theme} from '../theme';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

export interface Series {
  label: string;
  values: number[];
  /** A CSS custom property of the page's palette, e.g. `--answered`. */
  color: string;
}

interface Props {
  labels: string[];
  series: Series[];
  summary: string;
  theme: Theme;
  stacked?: boolean;
  horizontal?: boolean;
  /** Formats a value on the value axis (shares as percentages). */
  tick?: (value: number) => string;
  height?: number;
}

function palette(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

export function BarChart({labels, series, summary, theme, stacked = false, horizontal = false, tick, height = 260}: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return undefined;
    const text = palette('--text-muted');
    const grid = palette('--grid');
    const valueAxis = {
      stacked,
      beginAtZero: true,
      ticks: {color: text, precision: 0, ...(tick ? {callback: (v: string | number) => tick(Number(v))} : {})},
      grid: {color: grid},
    };
    const categoryAxis = {
      stacked,
      ticks: {color: text, autoSkip: true, maxRotation: 0, callback(this: {getLabelForValue(v: number): string}, v: string | number) {
        const label = this.getLabelForValue(Number(v));
        return label.length > 28 ? `${label.slice(0, 27)}…` : label;
      }},
      grid: {display: false},
    };
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels,
        datasets: series.map((s) => ({label: s.label, data: s.values, backgroundColor: palette(s.color), borderRadius: 2})),
      },
      options: {
        indexAxis: horizontal ? 'y' : 'x',
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: horizontal ? {x: valueAxis, y: categoryAxis} : {x: categoryAxis, y: valueAxis},
        plugins: {
          legend: {display: series.length > 1, labels: {color: text, boxWidth: 12}},
          tooltip: tick ? {callbacks: {label: (item) => `${item.dataset.label}: ${tick(Number(item.raw))}`}} : {},
        },
      },
    });
    return () => chart.destroy();
  }, [labels, series, stacked, horizontal, tick, theme]);
  return (
    <div className="chart" style={{height}}>
      <canvas ref={canvas} role="img" aria-label={summary} />
    </div>
  );
}
