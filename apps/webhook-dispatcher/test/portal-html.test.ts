import { html } from '../src/portal/html';

describe('the portal’s html template', () => {
  it('escapes text, keeps markup it built, and joins lists', () => {
    const page = html`<p>${'<b>'}${html`<i>x</i>`}${[html`<a></a>`, '&']}${null}${3}${false}</p>`;
    expect(page.value).toBe('<p>&lt;b&gt;<i>x</i><a></a>&amp;3false</p>');
  });

  it('takes only what a page can show: an object is refused by the type checker (npm run typecheck)', () => {
    // @ts-expect-error an object would show as [object Object]
    expect(html`${{ name: 'x' }}`.value).toBe('[object Object]');
  });
});
