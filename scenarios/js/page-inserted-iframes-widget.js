// The document each iframe of scenarios/js/page-inserted-iframes.jsonc loads.
console.log('widget ran');
