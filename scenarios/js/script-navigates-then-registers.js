// The page of scenarios/lifecycle/script-navigates-then-registers.jsonc: it navigates itself,
// then registers a tool and logs, all in one task.
location.assign('https://example.com/step2');
document.modelContext.registerTool({ name: 'fill_form', description: 'Fill the form', execute() {} });
console.log('after navigate');
