// A payment link paid on its hosted checkout page, as a payer's browser does it (the
// triggers that need a payer use it).

type Api = { baseUrl: string };

/**
 * Pays a link as a payer does: GET its hosted page and POST the card form (an HTML form post,
 * CSRF token included), on this installation's URL.
 */
export async function payLinkOnHostedPage(api: Api, url: string, card = '4242424242424242'): Promise<number> {
  const { pathname } = new URL(url);
  const target = `${api.baseUrl}${pathname}`;
  const page = await fetch(target);
  const token = /name="csrf_token" value="([^"]+)"/.exec(await page.text())?.[1];
  if (page.status !== 200 || !token)
    throw new TypeError(`The hosted page ${pathname} did not offer its form.`);
  const paid = await postCardForm(target, token, card);
  await paid.arrayBuffer();
  return paid.status;
}

/** POSTs a hosted card form (CSRF token, a test card expiring in five years) without following the redirect. */
export function postCardForm(
  url: string,
  token: string,
  card: string,
  extra: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      csrf_token: token,
      cardholder_name: 'Trigger Payer',
      card_number: card,
      exp_month: '12',
      exp_year: String(new Date().getUTCFullYear() + 5),
      cvc: '123',
      ...extra,
    }),
  });
}
