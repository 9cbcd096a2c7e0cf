import { ShareUnavailable } from "@/components/share-unavailable";

export default function ShareNotFound() {
  return <ShareUnavailable />;
}
