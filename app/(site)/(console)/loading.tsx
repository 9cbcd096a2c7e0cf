import { LoadingState } from "@/components/console/states";

export default function ConsoleLoading() {
  return <LoadingState />;
}
