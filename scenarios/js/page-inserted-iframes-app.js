// The page of scenarios/js/page-inserted-iframes.jsonc: it inserts three iframes of its server's
// /widget, the second with a name attribute; each logs when its load event fires.
for (const name of ['', 'maps', '']) {
  const iframe = document.createElement('iframe');
  iframe.src = '/widget';
  if (name !== '') iframe.name = name;
  iframe.onload = () => console.log(`loaded ${name === '' ? 'an unnamed iframe' : name}`);
  document.body.appendChild(iframe);
}
