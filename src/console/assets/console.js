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
