/**
 * A stand-in for one of the gateway's service clients (src/clients/*): the methods a test gives, and for any
 * other method a function that throws naming it, so that a test reaching a call it did not plan fails with
 * that name (its request is answered 500) instead of "x is not a function". Replaces `{} as XClient` casts.
 */
export function standIn<T extends object>(
  name: string,
  // Stand-ins answer loosely typed requests with partial replies: tests plan only what they read.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  methods: { [K in keyof T]?: (...args: any[]) => unknown } = {},
): T {
  return new Proxy(methods as T, {
    get(target, property, receiver) {
      if (Reflect.has(target, property) || typeof property === 'symbol' || property === 'then')
        return Reflect.get(target, property, receiver);
      return () => {
        throw new Error(`the ${name} stand-in was not given ${String(property)} by this test`);
      };
    },
  });
}
