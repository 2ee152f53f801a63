// Campus Conquest's web module: the campus map and its manual section.
export { CampusBoard as Renderer } from "./board.js";
export { manual } from "./manual.js";
