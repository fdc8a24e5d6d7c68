// The median of the shaped-link benches: runs that gave no figure (NaN: a give-up) are left out, and an even
// count takes the mean of the middle two, so 3 or 5 interleaved runs and a lost one read the same way.
export const median = (xs: number[]) => {
  const sorted = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
