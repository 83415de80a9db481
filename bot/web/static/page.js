// Steps through a game page without reloading it: the arrow keys, Home, End and the
// slider fetch the step's page from the server and put its <main> in place of this
// one. Nothing is built from text here: the server's HTML, escaped by its templates,
// is parsed and moved as it is. Without this script the links and the form work.
"use strict";

(function () {
  let main = document.getElementById("game");
  if (!main) {
    return;
  }
  let loading = 0;

  function current() {
    return Number(main.dataset.step);
  }

  function last() {
    return Number(main.dataset.last);
  }

  async function show(step, focusId) {
    step = Math.max(0, Math.min(last(), step));
    const here = main.dataset.here;
    const url = here + "?step=" + step;
    const ticket = ++loading;
    let text;
    try {
      const answer = await fetch(url, { credentials: "same-origin" });
      if (!answer.ok) {
        // Too many requests, or the page turned off: the plain address says why.
        location.assign(url);
        return;
      }
      text = await answer.text();
    } catch (error) {
      location.assign(url);
      return;
    }
    if (ticket !== loading) {
      return;
    }
    const page = new DOMParser().parseFromString(text, "text/html");
    const fresh = page.getElementById("game");
    if (!fresh || ticket !== loading) {
      return;
    }
    const adopted = document.importNode(fresh, true);
    main.replaceWith(adopted);
    main = adopted;
    history.replaceState(null, "", url);
    wire();
    if (focusId) {
      const target = document.getElementById(focusId);
      if (target) {
        target.focus();
      }
    }
  }

  function wire() {
    const slider = document.getElementById("slider");
    const form = document.getElementById("go");
    const button = document.getElementById("show");
    if (button) {
      button.hidden = true;
    }
    if (slider) {
      slider.addEventListener("change", function () {
        show(Number(slider.value), "slider");
      });
    }
    if (form) {
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        show(Number(slider.value), "slider");
      });
    }
    for (const id of ["prev", "next"]) {
      const link = document.getElementById(id);
      if (link && link.tagName === "A") {
        link.addEventListener("click", function (event) {
          event.preventDefault();
          show(current() + (id === "next" ? 1 : -1), id);
        });
      }
    }
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    const onSlider = document.activeElement && document.activeElement.id === "slider";
    const moves = { ArrowRight: 1, ArrowLeft: -1 };
    if (event.key in moves && !onSlider) {
      event.preventDefault();
      show(current() + moves[event.key]);
    } else if (event.key === "Home" && !onSlider) {
      event.preventDefault();
      show(0);
    } else if (event.key === "End" && !onSlider) {
      event.preventDefault();
      show(last());
    }
  });

  const asked = /^#step-(\d+)$/.exec(location.hash);
  if (asked) {
    show(Number(asked[1]));
  }
  wire();
})();
