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
