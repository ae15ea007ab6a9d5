/** Where the portal's only script is served from, under /portal (the package itself: no CDN, and the CSP allows only 'self'). */
export const PORTAL_SCRIPT_ROUTE = 'assets/portal.js';
export const PORTAL_SCRIPT_PATH = `/portal/${PORTAL_SCRIPT_ROUTE}`;

/** Copy buttons: `data-copy` names the element whose text is copied. Without scripts the text can still be selected. */
export const PORTAL_SCRIPT = `document.addEventListener('click', function (event) {
  var button = event.target.closest('[data-copy]');
  if (!button) return;
  var source = document.getElementById(button.getAttribute('data-copy'));
  if (!source || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.textContent).then(function () {
    button.textContent = 'Copied';
    setTimeout(function () { button.textContent = 'Copy'; }, 1500);
  });
});
`;
