import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";

/** one line of a chart: its label in the legend and a value per time bucket (null: nothing to show there) */
export type Series = { label: string; values: Array<number | null> };

type Props = {
  /** what the chart shows, for screen readers (the legend and the tables beside it have the figures) */
  title: string;
  /** each bucket's start, epoch seconds */
  times: number[];
  series: Series[];
  /** a value as the axis and the legend print it */
  format: (value: number) => string;
  /** the least top of the value axis (a rate: 1) */
  minTop?: number;
};

const COLORS = ["#1d4ed8", "#d97706", "#15803d", "#b91c1c", "#7c3aed", "#0e7490"];

/**
 * One metric over time, one line per series, on its own chart (the console draws a chart per
 * metric, so two scales never share one plot). uPlot draws it; the legend names each line.
 */
export function SeriesChart({ title, times, series, format, minTop }: Props) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = () => Math.max(260, el.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height: 180,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1e3), "Etc/UTC"),
        scales: { x: { time: true }, y: { auto: true, range: (_u, _min, max) => [0, Math.max(max > 0 ? max * 1.1 : 0, minTop ?? 0) || 1] } },
        series: [
          {},
          ...series.map((s, i) => ({
            label: s.label,
            stroke: COLORS[i % COLORS.length],
            width: 2,
            spanGaps: false,
            points: { show: times.length <= 45 },
            value: (_u: uPlot, v: number | null) => (v === null ? "—" : format(v)),
          })),
        ],
        axes: [
          { stroke: "#475569", grid: { stroke: "#e2e8f0" } },
          { stroke: "#475569", grid: { stroke: "#e2e8f0" }, size: 72, values: (_u, vals) => vals.map((v) => format(v)) },
        ],
      },
      [times, ...series.map((s) => s.values)] as uPlot.AlignedData,
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: 180 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [times.join(), JSON.stringify(series)]);
  return <div class="chart" ref={box} role="img" aria-label={title} />;
}
