/** A lazily loaded part of the page whose chunk cannot be fetched (offline, a replaced
 * deployment) shows `fallback` instead of taking the whole page down with it. */
import { Component, type ReactNode } from "react";

interface LoadBoundaryProps {
  fallback: ReactNode;
  onError?: () => void;
  children: ReactNode;
}

export class LoadBoundary extends Component<LoadBoundaryProps, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch() {
    this.props.onError?.();
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
