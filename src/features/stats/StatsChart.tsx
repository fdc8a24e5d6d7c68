import { type PointerEvent, useEffect, useId, useRef, useState } from 'react';
import type { StatsResponse } from '../../contract';
import { formatDay } from '../../ui/form/DatePickerField';
import { formatCount } from '../../ui/format';

type Day = StatsResponse['range']['daily'][number];

const axisDay = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });
const axisLabel = (date: string) => axisDay.format(new Date(`${date}T00:00:00Z`));

const SERIES = [
  { key: 'views', title: 'Views', unit: ['view', 'views'], color: '#a78bfa' },
  { key: 'likes', title: 'Likes', unit: ['like', 'likes'], color: '#f472b6' },
] as const;

const PANEL = 84;
const GAP = 30;
const HEAD = 22;
const AXIS = 22;

const plural = (n: number, [one, many]: readonly [string, string]) => `${n} ${n === 1 ? one : many}`;

/** What the chart shows, in words: the text alternative for those who do not see it. */
function summary(daily: Day[]): string {
  if (daily.length === 0) return 'No days to show.';
  const first = daily[0] as Day;
  const last = daily.at(-1) as Day;
  const parts = SERIES.map((series) => {
    const total = daily.reduce((n, d) => n + d[series.key], 0);
    if (total === 0) return `no ${series.unit[1]}`;
    const best = daily.reduce((a, b) => (b[series.key] > a[series.key] ? b : a));
    return `${plural(total, series.unit)} in total, most on ${formatDay(best.date)} (${best[series.key]})`;
  });
  return `Views and likes per day from ${formatDay(first.date)} to ${formatDay(last.date)}: ${parts.join('; ')}.`;
}

/**
 * Views and likes per day over the chosen range, as two bar panels sharing the calendar (each with its own
 * scale: likes are a fraction of views and would vanish under one). Plain SVG, sized to its box; a touch or a
 * pointer on a day shows that day's figures, and the same figures are a table below for screen readers.
 */
export function StatsChart({ daily }: { daily: Day[] }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [active, setActive] = useState<number | null>(null);
  const id = useId();

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setWidth(Math.round(element.getBoundingClientRect().width));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const n = daily.length;
  const height = SERIES.length * (HEAD + PANEL) + (SERIES.length - 1) * GAP + AXIS;
  const step = n > 0 ? width / n : 0;
  const bar = Math.max(1, Math.min(step * 0.7, 18));
  const shown = active !== null ? daily[active] : undefined;

  const pick = (event: PointerEvent<SVGSVGElement>) => {
    if (n === 0 || step === 0) return;
    const x = event.clientX - event.currentTarget.getBoundingClientRect().left;
    setActive(Math.min(n - 1, Math.max(0, Math.floor(x / step))));
  };

  // Three dates under the bars at most, so that they never run into each other on a phone.
  const ticks =
    n <= 1 ? [0] : n <= 7 && width > 300 ? daily.map((_, i) => i) : [0, Math.floor((n - 1) / 2), n - 1];

  return (
    <figure className="stats-chart" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`} className="stats-chart-caption">
        <span>Views and likes per day</span>
        <span className="stats-chart-readout" aria-hidden="true">
          {shown
            ? `${formatDay(shown.date)} · ${plural(shown.views, SERIES[0].unit)} · ${plural(shown.likes, SERIES[1].unit)}`
            : 'Touch a day for its figures'}
        </span>
      </figcaption>
      <div ref={box} className="stats-chart-box">
        {width > 0 && (
          <svg
            width={width}
            height={height}
            viewBox={`0 0 ${width} ${height}`}
            role="img"
            aria-label={summary(daily)}
            onPointerMove={pick}
            onPointerDown={pick}
            onPointerLeave={(event) => {
              if (event.pointerType === 'mouse') setActive(null);
            }}
          >
            {SERIES.map((series, s) => {
              const top = s * (HEAD + PANEL + GAP);
              const base = top + HEAD + PANEL;
              const max = Math.max(1, ...daily.map((d) => d[series.key]));
              const total = daily.reduce((sum, d) => sum + d[series.key], 0);
              return (
                <g key={series.key}>
                  <text x={0} y={top + 13} className="stats-chart-title" fill={series.color}>
                    {series.title}
                    <tspan className="stats-chart-total" dx={8}>
                      {formatCount(total)}
                    </tspan>
                  </text>
                  {total > 0 && (
                    <text x={width} y={top + 13} textAnchor="end" className="stats-chart-max">
                      max {formatCount(max)}
                    </text>
                  )}
                  {total === 0 && (
                    <text
                      x={width / 2}
                      y={top + HEAD + PANEL / 2 + 4}
                      textAnchor="middle"
                      className="stats-chart-none"
                    >
                      No {series.unit[1]} in these days
                    </text>
                  )}
                  <line x1={0} x2={width} y1={base} y2={base} className="stats-chart-baseline" />
                  <line x1={0} x2={width} y1={top + HEAD} y2={top + HEAD} className="stats-chart-grid" />
                  {daily.map((d, i) => {
                    const value = d[series.key];
                    const h = value === 0 ? 0 : Math.max(2, (value / max) * PANEL);
                    return (
                      <rect
                        key={d.date}
                        x={i * step + (step - bar) / 2}
                        y={base - h}
                        width={bar}
                        height={h}
                        rx={Math.min(3, bar / 2)}
                        fill={series.color}
                        opacity={active === null || active === i ? 1 : 0.45}
                      />
                    );
                  })}
                </g>
              );
            })}
            {active !== null && (
              <rect
                x={active * step}
                y={HEAD - 4}
                width={step}
                height={height - AXIS - HEAD + 4}
                className="stats-chart-focus"
              />
            )}
            {ticks.map((i) => {
              const d = daily[i];
              if (!d) return null;
              const x = i * step + step / 2;
              const anchor = i === 0 && n > 1 ? 'start' : i === n - 1 && n > 1 ? 'end' : 'middle';
              return (
                <text
                  key={d.date}
                  x={anchor === 'start' ? Math.max(0, x - step / 2) : anchor === 'end' ? width : x}
                  y={height - 6}
                  textAnchor={anchor}
                  className="stats-chart-tick"
                >
                  {axisLabel(d.date)}
                </text>
              );
            })}
          </svg>
        )}
      </div>
      <details className="stats-chart-table">
        <summary>Daily figures</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Views</th>
              <th scope="col">Likes</th>
            </tr>
          </thead>
          <tbody>
            {daily.map((d) => (
              <tr key={d.date}>
                <th scope="row">{formatDay(d.date)}</th>
                <td>{d.views}</td>
                <td>{d.likes}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
