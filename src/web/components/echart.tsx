import { BarChart, HeatmapChart, LineChart } from 'echarts/charts';
import {
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  VisualMapComponent,
} from 'echarts/components';
import { type EChartsCoreOption, init, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'preact/hooks';

// Only the parts the pages draw, so the bundle carries a fraction of ECharts.
use([
  LineChart,
  BarChart,
  HeatmapChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  DataZoomComponent,
  VisualMapComponent,
  CanvasRenderer,
]);

/** One ECharts chart, drawn again when `option` changes and resized with the window. */
export function EChart({ option, label }: { option: EChartsCoreOption; label: string }) {
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!element.current) return;
    const chart = init(element.current);
    chart.setOption(option);
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [option]);
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
