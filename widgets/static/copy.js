// meeple copy button: puts the `text` the Python side holds (the Explorer's numbers
// as CSV) on the clipboard. No logic here; where the browser refuses the clipboard
// (not a secure page), the button says so and the Explorer's text box still shows the CSV.

function render({ model, el }) {
  const button = document.createElement("button");
  button.className = "meeple-copy jupyter-button";
  button.textContent = model.get("label");
  button.title = "copy every simulated value's numbers as CSV";
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(model.get("text"));
      button.textContent = "Copied";
      model.set("copied", model.get("copied") + 1);
      model.save_changes();
    } catch (err) {
      button.textContent = "Copy refused: use the box below";
      model.send({ do: "show-text" });
    }
    setTimeout(() => { button.textContent = model.get("label"); }, 1500);
  });
  model.on("change:label", () => { button.textContent = model.get("label"); });
  el.appendChild(button);
}

export default { render };
