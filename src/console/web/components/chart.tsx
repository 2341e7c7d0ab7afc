import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import { usd } from "../format";

type Props = {
  /** what the chart shows, for screen readers (the table beside it has the figures) */
  title: string;
  days: string[];
  spend: number[];
  requests: number[];
};

/** Spend (bars' left axis, USD) and requests (right axis) per day, drawn by uPlot from the data. */
export function DailyChart({ title, days, spend, requests }: Props) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const width = () => Math.max(280, el.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height: 240,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1e3), "Etc/UTC"),
        scales: {
          x: { time: true },
          usd: { auto: true, range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
          n: { auto: true, range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
        },
        series: [
          {},
          { label: "Spend (USD)", scale: "usd", stroke: "#2563eb", fill: "rgba(37, 99, 235, 0.12)", width: 2, value: (_u, v) => (v === null ? "—" : usd(v)) },
          { label: "Requests", scale: "n", stroke: "#d97706", width: 2, value: (_u, v) => (v === null ? "—" : String(v)) },
        ],
        axes: [
          { stroke: "#475569", grid: { stroke: "#e2e8f0" } },
          { scale: "usd", size: 80, stroke: "#475569", grid: { stroke: "#e2e8f0" }, values: (_u, vals) => vals.map((v) => usd(v)) },
          { scale: "n", side: 1, stroke: "#475569", grid: { show: false } },
        ],
      },
      [xs, spend, requests],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: 240 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days.join(), spend.join(), requests.join()]);
  return <div class="chart" ref={box} role="img" aria-label={title} />;
}
