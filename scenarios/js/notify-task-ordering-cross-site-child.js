// The cross-site child of scenarios/spec/notify-task-ordering-cross-site.jsonc sets its own
// toolchange handler.
document.modelContext.ontoolchange = (e) => console.log('Child toolchange');
