// No import here: report cells are built in the report worker (app/report-worker.ts), which loads no runtime.

/** "USD 12.50|EUR 3.00" from {"USD": "12.5000", ...}: sorted by currency, two places at least. */
export function totalsCell(totals: Record<string, string> | null | undefined): string {
  return Object.entries(totals ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, amount]) => `${currency} ${trimAmount(amount)}`)
    .join('|');
}

function trimAmount(amount: string): string {
  const [whole, fraction = ''] = amount.split('.');
  const kept = fraction.replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${kept}`;
}
