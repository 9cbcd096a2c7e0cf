// canvaskit-wasm's full build (with Skottie) has the same API as its default entry.
declare module "canvaskit-wasm/bin/full/canvaskit.js" {
  import CanvasKitInit from "canvaskit-wasm";
  export default CanvasKitInit;
}
