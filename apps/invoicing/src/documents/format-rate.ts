// A tax or discount rate in basis points as the documents print it. A module of its own so that
// the web pages that print rates do not load pdfkit with the PDF module.

/** `2000` -> `20%`, `825` -> `8.25%`, `0` -> `0%`. */
export function formatRate(bps: bigint | number): string {
  const value = BigInt(bps);
  const whole = value / 100n;
  const fraction = (value % 100n).toString().padStart(2, '0').replace(/0+$/, '');
  return `${whole}${fraction ? `.${fraction}` : ''}%`;
}
