/** Inclusive bounds in days; a null upper bound leaves the last bucket open. */
export type DayBucket = readonly [number, number | null];

/** `0`, `1-7`, `366+`: a bucket as reports name it. */
export const bucketLabel = ([min, max]: DayBucket): string =>
  max === null ? `${min}+` : max === min ? `${min}` : `${min}-${max}`;

/** The bucket holding `days`: the last whose lower bound it reaches (buckets in ascending order). */
export const bucketIndex = (buckets: readonly DayBucket[], days: number): number =>
  buckets.findLastIndex(([min]) => days >= min);
