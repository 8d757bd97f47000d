// Small enhancements for the console's server-rendered pages; every page works without them.

// Forms that need a second thought (revoking a key, removing an endpoint) ask before they are sent.
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) event.preventDefault();
});

// A verification still in progress asks again by itself, with the same Idempotency-Key.
for (const form of document.querySelectorAll('form[data-auto-submit]')) {
  setTimeout(() => form.requestSubmit(), Number(form.dataset.autoSubmit));
}

// Copy buttons for secrets shown once.
for (const button of document.querySelectorAll('button[data-copy]')) {
  button.addEventListener('click', async () => {
    const text = document.getElementById(button.dataset.copy)?.textContent ?? '';
    await navigator.clipboard.writeText(text.trim());
    button.textContent = 'Copied';
  });
}

// The answer to an upload: the API's JSON, or a console page's words (429 when the user's requests are over its rate).
async function readAnswer(response) {
  const text = await response.text();
  if (response.headers.get('content-type')?.startsWith('application/json')) return JSON.parse(text);
  const page = new DOMParser().parseFromString(text, 'text/html');
  return { message: [...page.querySelectorAll('main p')].map((paragraph) => paragraph.textContent.trim()).join(' ') };
}

// File uploads (a roster, a list of numbers to watch): the file's text is sent as CSV with the session's token,
// and the API's own answer is shown: a validation error names the CSV row.
for (const form of document.querySelectorAll('form[data-upload]')) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const error = form.querySelector('[data-upload-error]');
    const button = form.querySelector('button[type="submit"]');
    const file = form.querySelector('input[type="file"]').files[0];
    const label = button.textContent;
    error.hidden = true;
    button.disabled = true;
    button.textContent = 'Sending…';
    try {
      const response = await fetch(form.dataset.upload, {
        method: 'POST',
        headers: { 'content-type': 'text/csv', 'x-csrf-token': form.dataset.csrf },
        body: await file.text(),
      });
      if (response.redirected) return window.location.assign(response.url);
      const answer = await readAnswer(response);
      if (!response.ok) throw new Error(answer.message);
      window.location.assign(form.dataset.then + (answer.id ?? ''));
    } catch (problem) {
      error.textContent = problem.message;
      error.hidden = false;
      button.disabled = false;
      button.textContent = label;
    }
  });
}

// Passkeys (WebAuthn): a passkey form asks the console for its ceremony's options (the challenge waits on the server),
// has the browser make or use the passkey, and sends the browser's answer as JSON in its `credential` field.
const fromBase64url = (text) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0));
const toBase64url = (bytes) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const withIds = (credentials) => (credentials ?? []).map((credential) => ({ ...credential, id: fromBase64url(credential.id) }));

async function passkeyAnswer(kind, options) {
  if (kind === 'create') {
    const publicKey = { ...options, challenge: fromBase64url(options.challenge), user: { ...options.user, id: fromBase64url(options.user.id) } };
    const credential = await navigator.credentials.create({ publicKey: { ...publicKey, excludeCredentials: withIds(options.excludeCredentials) } });
    const { clientDataJSON, attestationObject } = credential.response;
    const transports = credential.response.getTransports?.() ?? [];
    return { credential, response: { clientDataJSON: toBase64url(clientDataJSON), attestationObject: toBase64url(attestationObject), transports } };
  }
  const publicKey = { ...options, challenge: fromBase64url(options.challenge), allowCredentials: withIds(options.allowCredentials) };
  const credential = await navigator.credentials.get({ publicKey });
  const { clientDataJSON, authenticatorData, signature, userHandle } = credential.response;
  const response = { clientDataJSON: toBase64url(clientDataJSON), authenticatorData: toBase64url(authenticatorData), signature: toBase64url(signature) };
  return { credential, response: userHandle ? { ...response, userHandle: toBase64url(userHandle) } : response };
}

for (const form of document.querySelectorAll('form[data-passkey]')) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const error = form.querySelector('[data-passkey-error]');
    const button = form.querySelector('button[type="submit"]');
    error.hidden = true;
    button.disabled = true;
    try {
      if (!window.PublicKeyCredential) throw new Error('This browser cannot use passkeys.');
      const asked = await fetch(form.dataset.options, { method: 'POST', body: new URLSearchParams({ _csrf: form.elements._csrf.value }) });
      if (!asked.ok) throw new Error((await readAnswer(asked)).message);
      const { credential, response } = await passkeyAnswer(form.dataset.passkey, await asked.json());
      form.elements.credential.value = JSON.stringify({
        id: credential.id,
        rawId: toBase64url(credential.rawId),
        type: credential.type,
        response,
        authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
        clientExtensionResults: credential.getClientExtensionResults(),
      });
      form.submit();
    } catch (problem) {
      error.textContent = problem.name === 'NotAllowedError' ? 'No passkey was used: it was cancelled or timed out.' : problem.message;
      error.hidden = false;
      button.disabled = false;
    }
  });
}
