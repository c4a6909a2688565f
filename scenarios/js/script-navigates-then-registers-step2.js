// The document at /step2 that the page navigates to.
console.log('step2 loaded');
