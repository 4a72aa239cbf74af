document.documentElement.dataset.tally = "ready";
