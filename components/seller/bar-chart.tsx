"use client";

/** A small SVG bar chart of a per-day series, with a hidden table for screen readers. */
export function BarChart({
  title,
  days,
  color = "#1d4ed8",
  describe,
}: {
  title: string;
  days: { date: string; count: number }[];
  color?: string;
  describe: (count: number, date: string) => string;
}) {
  const max = Math.max(1, ...days.map((d) => d.count));
  const w = 300;
  const h = 80;
  const bw = w / Math.max(1, days.length);
  const total = days.reduce((s, d) => s + d.count, 0);
  return (
    <figure className="rounded-xl border border-slate-200 bg-white p-4" data-testid="chart">
      <figcaption className="flex items-baseline justify-between text-sm font-medium">
        <span>{title}</span>
        <span className="text-lg font-semibold">{total}</span>
      </figcaption>
      <svg viewBox={`0 0 ${w} ${h}`} className="mt-2 h-20 w-full" role="img" aria-label={`${title}: ${total}`} preserveAspectRatio="none">
        {days.map((d, i) => {
          const bh = (d.count / max) * (h - 4);
          return (
            <rect key={d.date} x={i * bw + 1} y={h - bh} width={Math.max(1, bw - 2)} height={bh} fill={color} rx={1}>
              <title>{describe(d.count, d.date)}</title>
            </rect>
          );
        })}
      </svg>
      <table className="sr-only">
        <caption>{title}</caption>
        <tbody>
          {days.map((d) => (
            <tr key={d.date}>
              <th scope="row">{d.date}</th>
              <td>{d.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
