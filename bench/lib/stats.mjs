// Percentiles and ratios for the scenario results.
export function percentile(sorted, p) {
  if (!sorted.length) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function summarize(values) {
  const s = Float64Array.from(values).sort();
  const round = (v) => (v === null ? null : Math.round(v * 100) / 100);
  return {
    n: s.length,
    p50: round(percentile(s, 50)),
    p90: round(percentile(s, 90)),
    p99: round(percentile(s, 99)),
    max: round(s.length ? s[s.length - 1] : null),
  };
}

export const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  if (!s.length) return null;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Median of paired ratios and their spread (min..max), from A/B rounds run alternately. */
export function pairedRatio(aValues, bValues) {
  const ratios = aValues.map((a, i) => a / bValues[i]).filter((x) => Number.isFinite(x));
  return { median: round3(median(ratios)), min: round3(Math.min(...ratios)), max: round3(Math.max(...ratios)), ratios: ratios.map(round3) };
}

export const round3 = (v) => (v === null || v === undefined || !Number.isFinite(v) ? null : Math.round(v * 1000) / 1000);
