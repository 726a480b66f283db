// Time on the page: a clock that re-renders every second (for "expires in" counters) and short
// spans ("42 s", "3 min", "2 h"). No data fetching here.
import { useEffect, useState } from 'react';

/** The current time, re-read every second so relative times keep moving. */
export function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/** "42 s", "3 min", "2 h" (never negative). */
export function span(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  return `${Math.floor(s / 3600)} h`;
}
