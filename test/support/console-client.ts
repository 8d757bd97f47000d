/**
 * A browser-less console client: the sign-in form's cookie and token, then the session's, as a browser keeps them.
 */
export class FormClient {
  cookies = new Map<string, string>();
  constructor(private readonly baseUrl: string) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async send(method: string, path: string, form?: Record<string, string>, headers: Record<string, string> = {}, body?: string): Promise<Response> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        cookie: this.cookieHeader,
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded', origin: this.baseUrl } : {}),
        ...headers,
      },
      body: form ? new URLSearchParams(form).toString() : body,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair.split('=');
      if (value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** The CSRF token of a page's forms. */
  async tokenOf(path: string): Promise<string> {
    const html = await (await this.send('GET', path)).text();
    const match = /name="_csrf" value="([^"]+)"/.exec(html);
    if (!match) throw new Error(`No form token on ${path}: ${html.slice(0, 300)}`);
    return match[1];
  }

  /** The page script's upload of a CSV file: `path` takes it, with the CSRF token of the page the form is on. */
  async uploadCsv(path: string, page: string, csv: string): Promise<Response> {
    const token = await this.tokenOf(page);
    return this.send('POST', path, undefined, { 'content-type': 'text/csv', 'x-csrf-token': token, origin: this.baseUrl }, csv);
  }

  async signIn(apiKey: string): Promise<Response> {
    const _csrf = await this.tokenOf('/console/sign-in');
    return this.send('POST', '/console/sign-in', { _csrf, apiKey });
  }
}
