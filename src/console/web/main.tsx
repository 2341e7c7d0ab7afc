import { render } from "preact";
import "uplot/dist/uPlot.min.css";
import "./styles.css";
import { App } from "./app";

const root = document.getElementById("app")!;
// the page's "Loading" text is plain HTML: Preact would keep it beside what it draws
root.textContent = "";
render(<App />, root);
