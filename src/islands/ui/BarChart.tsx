// A small horizontal bar chart as inline SVG, for numbers a table beside it also gives (the admin's
// download statistics, issue 25 item 5). The table is the text alternative: the chart is one image whose
// name says so, and nothing inside it is read out. Drawn with percentages and a fixed font size, so it
// fills any width without scaling its text; no chart library (none is a dependency, and this is all we need).

export interface Bar {
  label: string;
  value: number;
}

const ROW_HEIGHT = 28;
const BAR_HEIGHT = 18;
/** Labels take the left part, the numbers the right end; the bars the space between. */
const BARS_FROM_PCT = 34;
const BARS_TO_PCT = 88;

export function BarChart({ bars, name }: { bars: readonly Bar[]; name: string }) {
  if (bars.length === 0) return null;
  const largest = Math.max(...bars.map((bar) => bar.value), 1);
  const height = bars.length * ROW_HEIGHT;
  return (
    <svg className="bar-chart" width="100%" height={height} role="img" aria-label={name}>
      {bars.map((bar, index) => {
        const top = index * ROW_HEIGHT;
        const middle = top + ROW_HEIGHT / 2;
        const widthPct = ((BARS_TO_PCT - BARS_FROM_PCT) * bar.value) / largest;
        return (
          <g key={`${bar.label}-${index}`} aria-hidden="true">
            <text className="bar-chart__label" x="0" y={middle} dominantBaseline="middle">
              {bar.label}
            </text>
            <rect
              className="bar-chart__bar"
              x={`${BARS_FROM_PCT}%`}
              y={top + (ROW_HEIGHT - BAR_HEIGHT) / 2}
              width={`${widthPct}%`}
              height={BAR_HEIGHT}
              rx="3"
            />
            <text className="bar-chart__value" x="100%" y={middle} dominantBaseline="middle" textAnchor="end">
              {bar.value}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
