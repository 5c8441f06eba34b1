import type { EChartsCoreOption } from 'echarts/core';
import { useMemo } from 'preact/hooks';
import { EChart } from './echart.js';

export interface Series {
  name: string;
  values: (number | null)[];
  type: 'line' | 'bar';
  colour: string;
}

/** Several series over the same periods on one axis; a null is a gap, not a zero. */
export function SeriesChart(props: {
  dates: string[];
  series: Series[];
  format: (value: number) => string;
  label: string;
  /** Counts: the axis shows no fractions. */
  whole?: boolean;
}) {
  const { dates, series, format, whole } = props;
  const option = useMemo<EChartsCoreOption>(
    () => ({
      animationDuration: 300,
      tooltip: {
        trigger: 'axis',
        valueFormatter: (value: number | null) => (value === null ? '–' : format(value)),
      },
      legend: { type: 'scroll', bottom: 0 },
      grid: { left: 72, right: 16, top: 16, bottom: 48 },
      xAxis: { type: 'category', data: dates },
      yAxis: { type: 'value', axisLabel: { formatter: format }, minInterval: whole ? 1 : 0 },
      series: series.map((item) => ({
        name: item.name,
        type: item.type,
        data: item.values,
        showSymbol: dates.length <= 40,
        itemStyle: { color: item.colour },
      })),
    }),
    [dates, series, format, whole],
  );
  return <EChart option={option} label={props.label} />;
}
