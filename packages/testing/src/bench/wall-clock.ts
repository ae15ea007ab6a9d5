/** Milliseconds since the epoch at sub-millisecond resolution, comparable between the bench's threads. */
export const wallClock = (): number => performance.timeOrigin + performance.now();
