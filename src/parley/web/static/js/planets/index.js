// Planet Control's web module: the galaxy board and its manual section.
export { PlanetsBoard as Renderer } from "./board.js";
export { manual } from "./manual.js";
