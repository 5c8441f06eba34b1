import type { EChartsCoreOption } from 'echarts/core';
import { useEffect, useRef, useState } from 'preact/hooks';

let echarts: ReturnType<typeof fetchCharts> | undefined;

function fetchCharts() {
  return import('./echarts-parts.js');
}

/**
 * ECharts, a chunk of its own: in the main bundle its parsing delayed every request of the
 * first load. A report page asks for it once its own requests are sent, so it arrives and is
 * parsed while the server answers them (docs/performance.md); a chart waits for it.
 */
export function loadCharts(): ReturnType<typeof fetchCharts> {
  echarts ??= fetchCharts();
  return echarts;
}

/** One ECharts chart, drawn again when `option` changes and resized with the window. */
export function EChart({ option, label }: { option: EChartsCoreOption; label: string }) {
  const element = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let dispose: (() => void) | undefined;
    let current = true;
    loadCharts().then(
      ({ init }) => {
        if (!current || !element.current) return;
        const chart = init(element.current);
        chart.setOption(option);
        const resize = () => chart.resize();
        window.addEventListener('resize', resize);
        dispose = () => {
          window.removeEventListener('resize', resize);
          chart.dispose();
        };
      },
      () => current && setFailed(true),
    );
    return () => {
      current = false;
      dispose?.();
    };
  }, [option]);
  if (failed) {
    return (
      <p class="error" role="alert">
        The chart could not be loaded. Reload the page to try again.
      </p>
    );
  }
  // The names of the series drawn, for a test or a reader of the page's HTML.
  const series = (option as { series?: { name?: string }[] }).series ?? [];
  return (
    <div
      class="chart"
      ref={element}
      role="img"
      aria-label={label}
      data-series={series.map((item) => item.name ?? '').join('|')}
    />
  );
}
