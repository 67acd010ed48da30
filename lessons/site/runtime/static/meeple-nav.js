// The theme's sidebar buttons on the course site, on every page (lessons/_config.yml).
//
// pydata-sphinx-theme 0.16-0.17 with sphinx-book-theme 1.2-1.3 (upstream
// pydata/pydata-sphinx-theme#2451) put the class .primary-toggle (and .secondary-toggle) on two
// buttons: one in the theme's navbar, which the book theme hides, and the one a reader sees in
// the article's header. Both themes bind their click listener to the first of them only
// (document.querySelector), so on a phone the visible menu button opened nothing (the list of
// lessons stayed hidden) and on a wide screen it did not hide the sidebar. A click on any other
// button of that class is handed to the first one, whose listeners do what the theme meant
// (open the sidebar as a dialog on a narrow screen, hide or show it on a wide one); the click
// itself stops here, so a theme that binds every button does not act on it twice.
(function () {
  "use strict";
  document.addEventListener("click", (event) => {
    if (!(event.target instanceof Element)) return;
    for (const kind of [".primary-toggle", ".secondary-toggle"]) {
      const pressed = event.target.closest(kind);
      const bound = document.querySelector(kind);
      if (!pressed || !bound || pressed === bound) continue;
      event.preventDefault();
      event.stopPropagation();
      bound.click();
      return;
    }
  }, true);
})();
