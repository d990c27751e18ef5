// Numbers and shares as the page shows them.
const whole = new Intl.NumberFormat('en');
const percent = new Intl.NumberFormat('en', {style: 'percent', maximumFractionDigits: 1});

export const count = (n: number): string => whole.format(n);
export const share = (n: number | null): string => (n === null ? '–' : percent.format(n));
export const ms = (n: number | null): string => (n === null ? '–' : `${whole.format(Math.round(n))} ms`);
