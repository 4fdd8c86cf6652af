/** `work`, or a rejection once `ms` have passed (the work itself is not stopped). */
export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`No answer within ${ms} ms`)),
      ms,
    );
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
